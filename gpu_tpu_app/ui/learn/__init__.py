"""The Learn page: the lesson, the glossary and their HTML (built without Qt).

Its tr() strings go to resources/i18n/gpu_tpu_app_learn.<locale>.ts (`make ts`)."""
