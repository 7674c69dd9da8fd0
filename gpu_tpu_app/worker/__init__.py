"""Everything that runs in another interpreter (the user's venv, a cloud VM): standard library and the frameworks only."""
