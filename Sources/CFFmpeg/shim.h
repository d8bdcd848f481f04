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
#include <libavutil/sha.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <malloc.h>
#include <stdlib.h>

/* C macros that Swift cannot import become prefixed static inline functions. */

/* The C library's heap (glibc malloc.h), for ProcessHeap in PlayheadMedia. */
static inline int CFFmpeg_setMmapThreshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
static inline size_t CFFmpeg_mappedHeapBytes(void) { return mallinfo2().hblkhd; }

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

/* Scales the whole of `src` (after any cropping) into one packed plane at `dst`. */
static inline int CFFmpeg_sws_scale_frame_into(struct SwsContext *context, const AVFrame *src,
                                               uint8_t *dst, int dst_stride) {
  uint8_t *planes[4] = { dst, NULL, NULL, NULL };
  int strides[4] = { dst_stride, 0, 0, 0 };
  return sws_scale(context, (const uint8_t *const *)src->data, src->linesize, 0, src->height,
                   planes, strides);
}

#endif
