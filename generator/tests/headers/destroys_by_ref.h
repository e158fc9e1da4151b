/* hipgen-spec
# `destroys` with `usage: by_ref`: a handle passed by reference (`hiprtcProgram *`) is
# written back by C and marked destroyed on success; the argument is the handle object
# itself (or an address). A struct pointer destroyed (`struct drArray *`) keeps its struct
# check and marks the instance.
status: {enum: drStatus_t}
destroys: [drProgramDestroy, drArrayDestroy]
params:
  drProgramDestroy.prog: {usage: by_ref}
*/

typedef enum drStatus_t { drSuccess = 0, drError = 1 } drStatus_t;
typedef struct drProgram* drProgram_t;
struct drArray { int width; int height; };

drStatus_t drProgramCreate(drProgram_t* prog, const char* src);
drStatus_t drProgramDestroy(drProgram_t* prog);
drStatus_t drArrayDestroy(struct drArray* array);
