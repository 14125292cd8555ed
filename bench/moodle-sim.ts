import { Worker } from 'node:worker_threads';
import { normalizeRut } from '@sigaf/contract';
import type { Database } from '../apps/server/src/db/database.js';
import type { GeneratorOptions, generateSite } from '../tools/moodle-sim/src/generator.js';

/** The Moodle simulator for the benchmarks that sync (moodle-sync.ts, the staffed day): Moodle is another machine. */

/** The simulator in a worker thread (bench/moodle-sim-worker.ts), serving the same generated site. */
export async function startSimWorker(options: GeneratorOptions, latencyMs: number) {
  // The worker loads TypeScript through tsx, as this process does.
  const script = new URL('./moodle-sim-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(script)}); })`;
  const worker = new Worker(boot, { eval: true, workerData: { options, latencyMs } });
  const next = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (m: Record<string, unknown>) => {
        if (!(key in m)) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve(m[key] as T);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  const url = await next<string>('url');
  return {
    url,
    calls: () => {
      const answer = next<number>('calls');
      worker.postMessage('count');
      return answer;
    },
    close: async () => {
      const closed = next<boolean>('closed');
      worker.postMessage('close');
      await closed;
      await worker.terminate();
    },
  };
}

/**
 * A local course linked to the generated site's first course, its students (those with a RUT)
 * enrolled, in a category of its own: created once per `code`, found again on later runs.
 */
export async function linkSimCourse(
  db: Database,
  generated: ReturnType<typeof generateSite>,
  description: string,
  code: string,
): Promise<number> {
  const known = await db
    .selectFrom('courses')
    .innerJoin('categories', 'categories.id', 'courses.category_id')
    .select('courses.id')
    .where('categories.category_code', '=', code)
    .executeTakeFirst();
  if (known) return known.id;
  const platform = await db
    .selectFrom('platforms')
    .select('id')
    .where('key', '=', 'moodle')
    .executeTakeFirstOrThrow();
  const cat = await db
    .insertInto('categories')
    .values({ description: `Bench ${code}`, category_code: code, platform_id: platform.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const course = await db
    .insertInto('courses')
    .values({ description, category_id: cat.id, id_course_moodle: generated.courseIds[0]! })
    .returning('id')
    .executeTakeFirstOrThrow();
  const profile = (
    await db
      .selectFrom('profiles')
      .select('id')
      .where('key', '=', 'student')
      .executeTakeFirstOrThrow()
  ).id;
  const people = generated.people.filter((p) => p.rut);
  for (let i = 0; i < people.length; i += 1000) {
    const part = people.slice(i, i + 1000);
    const ids = await db
      .insertInto('registered_users')
      .values(
        part.map((p) => ({
          rut: normalizeRut(p.rut)!,
          name: p.firstname,
          last_name: p.lastname,
          email: p.email,
        })),
      )
      .onConflict((oc) => oc.column('rut').doUpdateSet((eb) => ({ name: eb.ref('excluded.name') })))
      .returning('id')
      .execute();
    await db
      .insertInto('course_registered_users')
      .values(
        ids.map((s) => ({ course_id: course.id, registered_user_id: s.id, profile_id: profile })),
      )
      .execute();
  }
  return course.id;
}
