"""The Result page: the verdict, its gauge and summary, and the report (dialog and PDF).

Its tr() strings go to resources/i18n/gpu_tpu_app_result.<locale>.ts (`make ts`)."""
