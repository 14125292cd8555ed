import type { Asker } from '../../http/envelope.js';

/** A request as a build reads it (path, caller, validated query and parameters, public URL): plain data, for another thread. */
export type BuildRequest = Asker & { query: unknown; params: unknown };
/** A build to run: one of the kept answers (answer-builds.ts), by name, for a request. */
export interface BuildJob {
  name: string;
  request: BuildRequest;
}
/** What a build returns: the answer, and when it stops being true by the clock alone. */
export interface Built {
  value: unknown;
  validUntil?: number;
}

/** An answer built: its JSON text gzipped, and when it stops being true by the clock alone. */
export interface BuiltText {
  /** A buffer of its own (not a slice of a larger one), so that it can be handed from one thread to another. */
  body: Uint8Array;
  validUntil: number;
}

/** Runs the builds of kept answers: on the server's thread or on a thread of their own (builders.ts). */
export interface Builder {
  build(job: BuildJob): Promise<BuiltText>;
  /** Starts what the first build would need (the building thread): at startup, not on a user's first request. */
  warm(): void;
  close(): Promise<void>;
}
