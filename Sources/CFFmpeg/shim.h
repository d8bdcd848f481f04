#ifndef PLAYHEAD_CFFMPEG_SHIM_H
#define PLAYHEAD_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libavutil/samplefmt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/aes.h>
#include <libavutil/aes_ctr.h>
#include <libavutil/encryption_info.h>
#include <libavutil/sha.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <dlfcn.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdlib.h>

/* C macros that Swift cannot import become prefixed static inline functions. */

/* The C library's heap (glibc malloc.h), for ProcessHeap in PlayheadMedia. */
static inline int CFFmpeg_setMmapThreshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
static inline size_t CFFmpeg_mappedHeapBytes(void) { return mallinfo2().hblkhd; }
static inline size_t CFFmpeg_heapFootprintBytes(void) { struct mallinfo2 info = mallinfo2(); return info.arena + info.hblkhd; }

static inline int CFFmpeg_AVERROR(int e) { return AVERROR(e); }
static inline int CFFmpeg_AVERROR_EOF(void) { return AVERROR_EOF; }
static inline int CFFmpeg_AVERROR_EAGAIN(void) { return AVERROR(EAGAIN); }
static inline int CFFmpeg_AVERROR_EXIT(void) { return AVERROR_EXIT; }
static inline int CFFmpeg_AVERROR_INVALIDDATA(void) { return AVERROR_INVALIDDATA; }
static inline int CFFmpeg_AVERROR_DECODER_NOT_FOUND(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int64_t CFFmpeg_AV_NOPTS_VALUE(void) { return AV_NOPTS_VALUE; }
static inline int CFFmpeg_AVSEEK_SIZE(void) { return AVSEEK_SIZE; }
static inline int CFFmpeg_AVSEEK_FORCE(void) { return AVSEEK_FORCE; }
static inline int CFFmpeg_AV_TIME_BASE(void) { return AV_TIME_BASE; }

/* Writes FFmpeg's message for `errnum` into `buf` (at least AV_ERROR_MAX_STRING_SIZE). */
static inline void CFFmpeg_av_err2str(int errnum, char *buf, size_t size) {
  av_strerror(errnum, buf, size);
}

/* Formats one av_log call as FFmpeg's own logger would print it (av_log_format_line2:
 * "[h264 @ 0x…] " before text that starts a line) into `line`, of `size` bytes. FFmpeg may
 * split a line over several calls; `print_prefix` says whether this call starts one, and
 * is updated for the next. It is the caller's (PlayheadMedia's FFmpegLog keeps it, under
 * a lock): this header keeps no state, as a static here would be one per translation unit.
 * Returns the length written, at most `size` - 1 (0 on failure). */
static inline int CFFmpeg_formatLogLine(void *context, int level, const char *format,
                                        va_list arguments, char *line, int size,
                                        int *print_prefix) {
  int length = av_log_format_line2(context, level, format, arguments, line, size, print_prefix);
  if (length < 0) {
    line[0] = 0;
    return 0;
  }
  return length < size ? length : size - 1;
}

/* Scales the whole of `src` (after any cropping) into one packed plane at `dst`. */
static inline int CFFmpeg_sws_scale_frame_into(struct SwsContext *context, const AVFrame *src,
                                               uint8_t *dst, int dst_stride) {
  uint8_t *planes[4] = { dst, NULL, NULL, NULL };
  int strides[4] = { dst_stride, 0, 0, 0 };
  return sws_scale(context, (const uint8_t *const *)src->data, src->linesize, 0, src->height,
                   planes, strides);
}

/* libavfilter is not linked: it and what it links (the flite voices, libplacebo, Vulkan and
 * some thirty more, about 11 MB resident) are loaded when the first filter graph is built,
 * so playback without filters never maps them. These are the functions Playhead calls, by
 * pointer, with the signatures of the headers above. */
typedef struct CFFmpegFilterFunctions {
  unsigned (*version)(void);
  AVFilterGraph *(*graph_alloc)(void);
  void (*graph_free)(AVFilterGraph **graph);
  int (*graph_config)(AVFilterGraph *graph, void *log_context);
  const AVFilter *(*get_by_name)(const char *name);
  int (*graph_create_filter)(AVFilterContext **created, const AVFilter *filter, const char *name,
                             const char *arguments, void *opaque, AVFilterGraph *graph);
  int (*graph_parse_ptr)(AVFilterGraph *graph, const char *description, AVFilterInOut **inputs,
                         AVFilterInOut **outputs, void *log_context);
  AVFilterInOut *(*inout_alloc)(void);
  void (*inout_free)(AVFilterInOut **list);
  int (*buffersrc_add_frame_flags)(AVFilterContext *source, AVFrame *frame, int flags);
  int (*buffersink_get_frame)(AVFilterContext *sink, AVFrame *frame);
} CFFmpegFilterFunctions;

/* The soname of the libavfilter these headers describe, e.g. "libavfilter.so.8". */
static inline const char *CFFmpeg_filterLibraryName(void) {
  return "libavfilter.so." AV_STRINGIFY(LIBAVFILTER_VERSION_MAJOR);
}

/* Loads libavfilter (for the life of the process) and fills `functions`. Returns NULL, or
 * on failure the loader's message or the name of the missing function. */
static inline const char *CFFmpeg_loadFilterFunctions(CFFmpegFilterFunctions *functions) {
  void *library = dlopen(CFFmpeg_filterLibraryName(), RTLD_NOW | RTLD_LOCAL);
  if (!library) return dlerror();
#define CFFMPEG_BIND(field, symbol) \
  if (!(*(void **)&functions->field = dlsym(library, #symbol))) return #symbol;
  CFFMPEG_BIND(version, avfilter_version)
  CFFMPEG_BIND(graph_alloc, avfilter_graph_alloc)
  CFFMPEG_BIND(graph_free, avfilter_graph_free)
  CFFMPEG_BIND(graph_config, avfilter_graph_config)
  CFFMPEG_BIND(get_by_name, avfilter_get_by_name)
  CFFMPEG_BIND(graph_create_filter, avfilter_graph_create_filter)
  CFFMPEG_BIND(graph_parse_ptr, avfilter_graph_parse_ptr)
  CFFMPEG_BIND(inout_alloc, avfilter_inout_alloc)
  CFFMPEG_BIND(inout_free, avfilter_inout_free)
  CFFMPEG_BIND(buffersrc_add_frame_flags, av_buffersrc_add_frame_flags)
  CFFMPEG_BIND(buffersink_get_frame, av_buffersink_get_frame)
#undef CFFMPEG_BIND
  return NULL;
}

/* Whether libavfilter is mapped into this process now (without loading it). */
static inline int CFFmpeg_isFilterLibraryLoaded(void) {
  void *library = dlopen(CFFmpeg_filterLibraryName(), RTLD_LAZY | RTLD_NOLOAD);
  if (!library) return 0;
  dlclose(library);
  return 1;
}

#endif
