TARGET_ARCH=lanai
TARGET_BIG_ENDIAN=y
TARGET_XML_FILES= gdb-xml/lanai-cpu.xml
