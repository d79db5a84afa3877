# Man pages and shell completion (filled in below).
