"""Qt widgets of the window: shell, Decide wizard and result, Probe panel, Learn page."""
