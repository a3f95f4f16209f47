# Settings of this app, read at every start, by every command and by the tests: copy this file
# to .env (git ignores it) and set what you need. A variable of the real environment wins over
# any file; .env.<NODE_ENV> and .env.local, read after .env, win over it. Every setting is in
# Herald's docs/configuration.md.
# PORT=8080
# LOG_LEVEL=info
# DATABASE_URL=postgres://user:password@127.0.0.1:5432/app
# PGLITE_DATA_DIR=.data/pglite
# DATABASE_MIGRATIONS=boot
# REDIS_URL=redis://127.0.0.1:6379
