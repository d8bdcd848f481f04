#ifndef PLAYHEAD_CSDL2_SHIM_H
#define PLAYHEAD_CSDL2_SHIM_H

#include <SDL.h>

/* C macros that Swift cannot import become prefixed static inline functions. */

/* SDL_WINDOWPOS_CENTERED: centre the window on the first display. */
static inline int CSDL2_WINDOWPOS_CENTERED(void) { return (int)SDL_WINDOWPOS_CENTERED; }

/* The native-endian 16-bit signed and 32-bit float sample formats. */
static inline SDL_AudioFormat CSDL2_AUDIO_S16SYS(void) { return AUDIO_S16SYS; }
static inline SDL_AudioFormat CSDL2_AUDIO_F32SYS(void) { return AUDIO_F32SYS; }

/* The GL_RENDERER string of the calling thread's current OpenGL (ES) context, or NULL when
   there is none: "llvmpipe (LLVM 15.0.6, 256 bits)" names Mesa's software rasteriser. */
static inline const char *CSDL2_CurrentGLRendererName(void) {
  typedef const unsigned char *(*GetString)(unsigned int);
  if (SDL_GL_GetCurrentContext() == NULL) return NULL;
  GetString getString = (GetString)SDL_GL_GetProcAddress("glGetString");
  if (getString == NULL) return NULL;
  return (const char *)getString(0x1F01 /* GL_RENDERER */);
}

#endif
