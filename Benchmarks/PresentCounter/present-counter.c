/* Counts the frames a program presents with SDL2 (SDL_RenderPresent calls) and writes the
   count to the file named by PRESENT_COUNT_FILE when the program exits. Loaded with
   LD_PRELOAD by Benchmarks/window.sh, so that players that drop different numbers of late
   frames are compared with the number of frames each one showed. Benchmark tooling only. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct SDL_Renderer SDL_Renderer;

static atomic_long presents;

static void write_count(void) {
  const char *path = getenv("PRESENT_COUNT_FILE");
  if (path == NULL) return;
  FILE *file = fopen(path, "w");
  if (file == NULL) return;
  fprintf(file, "%ld\n", atomic_load(&presents));
  fclose(file);
}

__attribute__((constructor)) static void start_counting(void) { atexit(write_count); }

void SDL_RenderPresent(SDL_Renderer *renderer) {
  static void (*next)(SDL_Renderer *);
  if (next == NULL) next = (void (*)(SDL_Renderer *))dlsym(RTLD_NEXT, "SDL_RenderPresent");
  atomic_fetch_add(&presents, 1);
  next(renderer);
}
