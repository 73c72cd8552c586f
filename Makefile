# The one test command is `make test`; `npm start` runs the service.
.PHONY: test typecheck lint format openapi sdk routes config-table bench bench-scan soak fuzz migration start

test: typecheck lint
	npx tsx test/run.ts

typecheck:
	npx tsc -p .

# Biome (biome.jsonc): the formatting and the lint rules of every source file, as CI checks them.
lint:
	npx biome ci .

# Formats every source file in place (and applies the linter's safe fixes).
format:
	npx biome check --write .

# Regenerates the committed contract from the route schemas (a test fails when it is stale).
openapi:
	npx tsx openapi/generate.ts

# Regenerates the typed client types from the committed contract (openapi-typescript through the
# same function the freshness test calls, so a stale file fails `make test`), then builds the package
# (openapi/client/dist: ESM and type declarations; `npm pack` there builds it too).
sdk:
	npx tsx openapi/client/generate.ts
	cd openapi/client && npm run build --silent

# Every route the app serves: method, path, operation id, tag, the file that declares it.
routes:
	@npx tsx src/route-table.ts

# Writes the README's configuration table from ConfigSchema's descriptions (a test fails when it is stale).
config-table:
	npx tsx src/config-table.ts

# The reads, writes and tasks (test/bench/run.ts), then the door's scan with 100,000 ticket holders (scan.ts); fails
# when either misses a target, after running both.
bench:
	npx tsx test/bench/run.ts; reads=$$?; npx tsx test/bench/scan.ts; scan=$$?; exit $$((reads || scan))

bench-scan:
	npx tsx test/bench/scan.ts

# A steady mixed load for SOAK_MINUTES (10) against `npm start`: errors and server memory over time, PASS/FAIL.
soak:
	npx tsx test/soak/run.ts

# The contract fuzzer of `make test` for longer: FUZZ_RUNS requests per operation (100) with a random seed it
# prints first; FUZZ_SEED=<seed> replays a run.
fuzz:
	FUZZ_SEED=$${FUZZ_SEED:-random} FUZZ_RUNS=$${FUZZ_RUNS:-100} npx tsx test/run.ts test/fuzz/contract.test.ts

# After changing db/schema/*.ts: writes the next SQL migration (NAME=what_changed).
migration:
	npx drizzle-kit generate --config db/drizzle.config.ts --name $(NAME)

start:
	npm start
