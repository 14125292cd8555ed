/**
 * Once: every statement trigger function that reads a transition table was rewritten in place to
 * return at once when that table is empty (an attempt's statement alone 0.76–0.93 → 0.56–0.67 ms).
 * Measured in the staffed day, side by side, it bought nothing staff feel (the same medians, the
 * database's CPU per request within the runs' noise), so it was taken out: a new database rewrites
 * nothing here, and 0038 gives earlier databases their functions' bodies back
 * (docs/development/performance.md, "What each mechanism buys"). Kept as a step so that migrated
 * databases keep their history.
 */
export async function up(): Promise<void> {}
