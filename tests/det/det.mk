# Used by tests/determinism.sh only: the project Makefile, plus header
# dependency tracking for object directories outside build/obj (the main
# Makefile only reads build/obj/**/*.d, and must not see half-written .d
# files of a determinism build running next to it).
include Makefile
-include $(shell find $(OBJ_DIR) -name '*.d' 2>/dev/null)
