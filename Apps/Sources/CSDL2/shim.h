// SDL2 and SDL2_ttf from the system (Debian: libsdl2-dev, libsdl2-ttf-dev).
// Swift cannot import function-like macros, so the few the gallery needs
// are wrapped as inline functions here.
#ifndef PARALLAX_CSDL2_SHIM_H
#define PARALLAX_CSDL2_SHIM_H

#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>

static inline int pk_sdl_windowpos_centered(void) { return SDL_WINDOWPOS_CENTERED; }
static inline Uint32 pk_sdl_pixelformat_rgba32(void) { return SDL_PIXELFORMAT_RGBA32; }
static inline Uint32 pk_sdl_pixelformat_xrgb8888(void) { return SDL_PIXELFORMAT_XRGB8888; }

#endif
