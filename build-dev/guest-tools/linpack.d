build-dev/guest-tools/linpack.o: guest-tools/linpack.c
