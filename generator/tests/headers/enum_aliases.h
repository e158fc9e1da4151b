/* hipgen-spec
# Names of one enum and of its members: a typedef whose name differs from the tag, a second
# typedef of it, members sharing a value, and a `#define` renaming the enum and a member
# (old names kept as aliases, as HIP's renames of hiprtc's names are).
*/

enum aliasMode { aliasModeFast = 0, aliasModeSafe = 1, aliasModeDefault = 1 };
typedef enum aliasMode aliasMode_t;
typedef enum aliasMode aliasModeOld_t;

#define aliasLegacyMode aliasMode
#define ALIAS_MODE_LEGACY_SAFE aliasModeSafe

aliasMode_t aliasSwap(aliasMode_t mode, aliasModeOld_t old);
