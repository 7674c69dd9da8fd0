"""The Probe page: runs, devices, environments, results table, the estimator and the framework check.

Its tr() strings go to resources/i18n/gpu_tpu_app_probe.<locale>.ts (`make ts`)."""
