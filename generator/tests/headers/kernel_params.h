/* hipgen-spec
# Kernel launches: `usage: kernel_extra` takes hipModuleLaunchKernel's `extra`, a tuple of
# ctypes values and pointers packed for C (`rt::KernelExtra`); an array of argument
# pointers (`void **kernelParams`) with `usage: pointer` is any pointer-like object.
params:
  kpLaunch.kernelParams: {usage: pointer}
  kpLaunch.extra: {usage: kernel_extra}
*/

typedef struct kpFunction* kpFunction_t;

int kpLaunch(kpFunction_t f, unsigned gridX, unsigned blockX, void** kernelParams, void** extra);
