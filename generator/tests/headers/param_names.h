/* hipgen-spec
# Parameter names: a Rust keyword is a raw identifier (`type` → `r#type`), one with no raw
# form or a Python keyword gets a `_` (`self` → `self_`, `from` → `from_`, which is also its
# Python name); an unnamed parameter is `arg<N>`. Names only Rust reserves keep their
# Python spelling (`type`, `self`).
*/

int pnCopy(int from, int to, int type, int self, int lambda);
int pnUnnamed(int, float, const char*);
int pnMatch(int match, int Ok, int yield);
