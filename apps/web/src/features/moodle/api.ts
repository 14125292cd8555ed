import type {
  Collection,
  Envelope,
  MoodleCategoryItem,
  MoodleConnectionReport,
  MoodleCourseItem,
  MoodleImportResult,
  MoodlePushProgress,
  MoodlePushRequest,
  MoodlePushResult,
  MoodleSyncProgress,
  MoodleSyncResult,
  MoodleSectionMap,
  SectionProposals,
  SectionProposalsApplied,
} from '@sigaf/contract';
import { useQuery } from '@tanstack/react-query';
import { getData, request } from '../../lib/api';

export interface MoodleSettings {
  platformId: number;
  description: string;
  url: string | null;
  hasToken: boolean;
}

/** The connection test's answer: site, functions, the capabilities as far as they could be checked, and the warnings. */
export type ConnectionReport = MoodleConnectionReport;

type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled' | null;

export interface SyncStatus {
  courseId: number;
  state: JobState;
  jobId: number | null;
  progress: MoodleSyncProgress | null;
  result: MoodleSyncResult | null;
  error: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  lastSyncAt: string | null;
}

export interface PushStatus {
  courseId: number;
  state: JobState;
  jobId: number | null;
  progress: MoodlePushProgress | null;
  result: MoodlePushResult | null;
  error: string | null;
  updatedAt: string | null;
}

export interface SectionGroup {
  id: number | null;
  description: string;
  key: string | null;
  count: number;
  weighing: number;
}

export const isActive = (state: JobState | undefined) => state === 'queued' || state === 'running';

export function usePlatforms() {
  return useQuery({
    queryKey: ['options', 'platforms'],
    queryFn: async () =>
      (
        await getData<Collection<{ id: number; description: string }>>('/api/v2/platforms')
      ).collections.map((c) => c.properties),
    staleTime: 60_000,
  });
}

export function useMoodleSettings(platformId: number | '') {
  return useQuery({
    queryKey: ['moodle-settings', platformId],
    enabled: platformId !== '',
    queryFn: () => getData<MoodleSettings>(`/api/v2/platforms/${platformId}/moodle`),
  });
}

export function saveMoodleSettings(platformId: number, body: { url: string; token?: string }) {
  return request<Envelope<MoodleSettings>>(`/api/v2/platforms/${platformId}/moodle`, {
    method: 'PUT',
    body,
  });
}

export function testMoodleConnection(platformId: number, body: { url?: string; token?: string }) {
  return request<Envelope<ConnectionReport>>(`/api/v2/platforms/${platformId}/moodle/test`, {
    method: 'POST',
    body,
  });
}

/** The course's sync status; polled every second while a sync is queued or running. */
export function useSyncStatus(courseId: number | undefined) {
  return useQuery({
    queryKey: ['moodle-sync-status', courseId],
    enabled: Boolean(courseId),
    queryFn: () => getData<SyncStatus>(`/api/v2/sync/courses/${courseId}/status`),
    refetchInterval: (q) => (isActive(q.state.data?.state) ? 1000 : false),
  });
}

export function startSync(courseId: number) {
  return request<Envelope<{ jobId: number; created: boolean }>>(
    `/api/v2/sync/courses/${courseId}`,
    { method: 'POST', body: {} },
  );
}

export function usePushStatus(courseId: number | undefined) {
  return useQuery({
    queryKey: ['moodle-push-status', courseId],
    enabled: Boolean(courseId),
    queryFn: () => getData<PushStatus>(`/api/v2/sync/courses/${courseId}/push/status`),
    refetchInterval: (q) => (isActive(q.state.data?.state) ? 1000 : false),
  });
}

export function startPush(courseId: number, body: MoodlePushRequest) {
  return request<Envelope<{ jobId: number; created: boolean }>>(
    `/api/v2/sync/courses/${courseId}/push`,
    { method: 'POST', body },
  );
}

/** The course's activities grouped by section: count and total weighing of each. */
export function useSectionGroups(courseId: number | undefined) {
  return useQuery({
    queryKey: ['resource', 'activities', 'sections-of', courseId],
    enabled: Boolean(courseId),
    queryFn: async () => {
      type Section = { id: number | null; description: string; key: string | null };
      const data = await getData<Collection<Section>>(`/api/v2/courses/${courseId}/activities`);
      return data.collections.map((c): SectionGroup => {
        const items = (
          (c.relationships as { array?: Array<{ properties: { weighing: number } }> }).array ?? []
        ).map((a) => a.properties);
        return {
          ...c.properties,
          count: items.length,
          weighing: items.reduce((sum, a) => sum + Number(a.weighing || 0), 0),
        };
      });
    },
  });
}

export function useMoodleCategories(platformId: number | '', enabled: boolean) {
  return useQuery({
    queryKey: ['moodle-categories', platformId],
    enabled: enabled && platformId !== '',
    queryFn: async () =>
      (
        await getData<{ categories: MoodleCategoryItem[] }>(
          `/api/v2/platforms/${platformId}/moodle/categories`,
        )
      ).categories,
    retry: false,
  });
}

export function useMoodleCourses(platformId: number | '', categoryId: number | null) {
  return useQuery({
    queryKey: ['moodle-courses', platformId, categoryId],
    enabled: platformId !== '' && categoryId !== null,
    queryFn: async () =>
      (
        await getData<{ courses: MoodleCourseItem[] }>(
          `/api/v2/platforms/${platformId}/moodle/courses`,
          { query: { category: categoryId } },
        )
      ).courses,
    retry: false,
  });
}

export function importMoodleCourse(platformId: number, moodleCourseId: number) {
  return request<Envelope<MoodleImportResult>>(`/api/v2/platforms/${platformId}/moodle/import`, {
    method: 'POST',
    body: { moodleCourseId },
  });
}

/** Leaves an activity out of progress and pending counts (or brings it back). */
export const setActivityExcluded = (activityId: number, excluded: boolean) =>
  request<Envelope<unknown>>(`/api/v2/activities/${activityId}/progress`, {
    method: 'PUT',
    body: { excluded },
  });

/** Staff confirm that an activity marked unseen (deleted or hidden) is deleted in Moodle. */
export const confirmActivityRemoval = (activityId: number) =>
  request<Envelope<unknown>>(`/api/v2/activities/${activityId}/removal`, { method: 'POST' });

/** Sections proposed for synchronised activities, and the course's Moodle section → SIGAF section mapping. */
export function useSectionProposals(courseId: number | undefined) {
  return useQuery({
    // Under ['resource', 'activities']: refreshed with the activities (after a sync, an edit).
    queryKey: ['resource', 'activities', 'section-proposals', courseId],
    enabled: Boolean(courseId),
    queryFn: () => getData<SectionProposals>(`/api/v2/sync/courses/${courseId}/section-proposals`),
  });
}

/** "Aplicar propuestas": every pending proposal (or the listed activities'). */
export const applySectionProposals = (courseId: number, activityIds?: number[]) =>
  request<Envelope<SectionProposalsApplied>>(
    `/api/v2/sync/courses/${courseId}/section-proposals/apply`,
    { method: 'POST', body: activityIds ? { activity_ids: activityIds } : {} },
  );

export const saveSectionMap = (courseId: number, moodleSection: string, sectionId: number) =>
  request<Envelope<{ map: MoodleSectionMap; filed: number }>>(
    `/api/v2/sync/courses/${courseId}/section-maps`,
    { method: 'PUT', body: { moodle_section: moodleSection, section_id: sectionId } },
  );

export const deleteSectionMap = (courseId: number, mapId: number) =>
  request<Envelope<null>>(`/api/v2/sync/courses/${courseId}/section-maps/${mapId}`, {
    method: 'DELETE',
    body: {},
  });
