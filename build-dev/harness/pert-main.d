build-dev/harness/pert-main.o: harness/pert-main.c harness/commands.h
harness/commands.h:
