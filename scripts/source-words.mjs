// Words that name where a rule came from instead of the rule: the notes the project was designed
// from, its numbered source documents and the runtimes' code names. A reader of the repository
// cannot open any of them, so comments point to docs/protocol.md and docs/architecture.md instead
// (docs/architecture.md, "Conventions"). Read by scripts/check-examples.mjs (public JSDoc) and by
// test/architecture/doc-references.test.ts (every tracked text file). Fast-check's `seed: 1234`
// and "fixed seeds" are not sources and do not match.
export const SOURCE_WORDS = /\bDESIGN\b|\b[Dd]esign\.md\b|\b[Ss]eeds? \d{3}\b|\b[Tt]he seeds\b|\bvRT\b|\brmc\b/;
