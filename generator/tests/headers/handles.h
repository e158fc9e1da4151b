/* hipgen-spec
# Opaque handles: a typedef of a pointer to a struct no header defines is a handle class
# (named by its tag, the typedef an alias); as argument it takes that handle object or an
# address, as result it is a new handle object. A typedef of a pointer to a defined struct
# (HIP 5's `hipArray_t`) is that struct's alias: its argument takes the struct's instance.
*/

typedef struct hdlStream* hdlStream_t;
typedef struct hdlEvent_s* hdlEvent_t;
typedef struct hdlDefined { int id; } *hdlDefined_t;

hdlStream_t hdlDefaultStream(void);
int hdlRecord(hdlEvent_t event, hdlStream_t stream);
hdlEvent_t hdlLastEvent(hdlStream_t stream);
int hdlUseDefined(hdlDefined_t defined);
