import type { Asker } from '../../http/envelope.js';

/** What a build returns: the answer, and when it stops being true by the clock alone. */
export interface Built {
  value: unknown;
  validUntil?: number;
}

/**
 * A request as a kept answer's build reads it (its path, caller, validated query and parameters,
 * the public URL): plain data, so that the build can run in another thread.
 */
export type BuildRequest = Asker & { query: unknown; params: unknown };

/** A build to run: one of the kept answers (builds.ts) for a request. */
export interface BuildJob {
  name: string;
  request: BuildRequest;
}

/** An answer built and written as UTF-8 JSON text, with when it stops being true by the clock alone. */
export interface BuiltText {
  /** A buffer of its own (not a slice of a larger one), so that it can be handed from one thread to another. */
  body: Uint8Array;
  validUntil: number;
}

/** Runs the builds of kept answers: on the server's thread or on a thread of their own (builders.ts). */
export interface Builder {
  build(job: BuildJob): Promise<BuiltText>;
  /** Makes ready what the first build would (the building thread): at startup, not on a user's first request. */
  warm(): Promise<void>;
  close(): Promise<void>;
}
