# Default configuration for lanai-softmmu
CONFIG_LANAI_TEST=y
CONFIG_MYRINET=y
