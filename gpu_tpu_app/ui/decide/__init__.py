"""The Decide page: the wizard's question cards.

Its tr() strings go to resources/i18n/gpu_tpu_app_decide.<locale>.ts (`make ts`)."""
