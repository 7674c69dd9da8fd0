"""The window's frame: the app, main window, menus, navigation, preferences, About, the Welcome page, session and price files, theme and shared widgets.

Its tr() strings go to resources/i18n/gpu_tpu_app_shell.<locale>.ts (`make ts`)."""
