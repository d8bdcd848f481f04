#ifndef PLAYHEAD_CDBUS_SHIM_H
#define PLAYHEAD_CDBUS_SHIM_H

#include <dbus/dbus.h>

/* C macros that Swift cannot import become prefixed static inline functions. */

/* The D-Bus type codes of the values MPRIS uses. */
static inline int CDBus_TYPE_STRING(void) { return DBUS_TYPE_STRING; }
static inline int CDBus_TYPE_OBJECT_PATH(void) { return DBUS_TYPE_OBJECT_PATH; }
static inline int CDBus_TYPE_BOOLEAN(void) { return DBUS_TYPE_BOOLEAN; }
static inline int CDBus_TYPE_DOUBLE(void) { return DBUS_TYPE_DOUBLE; }
static inline int CDBus_TYPE_INT64(void) { return DBUS_TYPE_INT64; }
static inline int CDBus_TYPE_VARIANT(void) { return DBUS_TYPE_VARIANT; }
static inline int CDBus_TYPE_ARRAY(void) { return DBUS_TYPE_ARRAY; }
static inline int CDBus_TYPE_DICT_ENTRY(void) { return DBUS_TYPE_DICT_ENTRY; }
static inline int CDBus_TYPE_INVALID(void) { return DBUS_TYPE_INVALID; }

/* Message types. */
static inline int CDBus_MESSAGE_TYPE_METHOD_CALL(void) { return DBUS_MESSAGE_TYPE_METHOD_CALL; }

/* Name request flags and replies. */
static inline unsigned int CDBus_NAME_FLAG_DO_NOT_QUEUE(void) { return DBUS_NAME_FLAG_DO_NOT_QUEUE; }
static inline int CDBus_REQUEST_NAME_REPLY_PRIMARY_OWNER(void) {
  return DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER;
}

/* A DBusError made ready for use, and whether one is set. */
static inline DBusError CDBus_MakeError(void) {
  DBusError error;
  dbus_error_init(&error);
  return error;
}

#endif
