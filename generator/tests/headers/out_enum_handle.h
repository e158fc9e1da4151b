/* hipgen-spec
# Outputs of an enum (the member of the value C wrote) and of a handle (`T **` of an opaque
# struct: a new handle object).
status: {enum: oeStatus_t}
*/

typedef enum oeStatus_t { oeSuccess = 0, oeError = 1 } oeStatus_t;
typedef enum oeKind_t { oeKindA = 1, oeKindB = 2 } oeKind_t;
typedef struct oeContext* oeContext_t;

oeStatus_t oeGetKind(oeKind_t* kind);
oeStatus_t oeCreate(oeContext_t* ctx, unsigned flags);
oeStatus_t oeGetCurrent(oeContext_t* ctx, oeKind_t* kind);
