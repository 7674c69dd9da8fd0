"""The Probe page's charts (pyqtgraph, imported when the page is first shown); data.py computes them without Qt.

Its tr() strings go to resources/i18n/gpu_tpu_app_charts.<locale>.ts (`make ts`)."""
