build-dev/guest-tools/pipe.o: guest-tools/pipe.c
