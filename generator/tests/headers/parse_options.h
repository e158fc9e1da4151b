/* hipgen-spec
# How the header is read: `defines` are passed to the compiler, and `prelude` is C put
# before the includes (types a header expects from elsewhere): here they choose which
# declarations the header makes. `include_dirs`: where the headers are, relative to the
# include directory, the first that exists winning.
include_dirs: [no_such_folder, .]
defines: [PD_ENABLE_EXTRA=1, PD_WIDTH=64]
prelude: |
  typedef int pdExternal_t;
*/

#if PD_WIDTH == 64
typedef long long pdWord_t;
#else
typedef int pdWord_t;
#endif

pdWord_t pdLoad(pdExternal_t index);
#ifdef PD_ENABLE_EXTRA
int pdExtra(void);
#endif
#ifdef PD_DISABLED
int pdDisabled(void);
#endif
