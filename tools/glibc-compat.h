/* Included first in every NVIDIA shim (tools/nvidia-shim.sh): the libdl functions bind to
 * their original symbol version, which every glibc since 2.2.5 has (in libdl.so.2 before
 * glibc 2.34, in libc.so.6 after), rather than to glibc 2.34's, so that the wheel the shims
 * ship in keeps its manylinux_2_28 tag. */
__asm__(".symver dlsym,dlsym@GLIBC_2.2.5");
__asm__(".symver dlopen,dlopen@GLIBC_2.2.5");
__asm__(".symver dlerror,dlerror@GLIBC_2.2.5");
__asm__(".symver dlclose,dlclose@GLIBC_2.2.5");
