import { useState } from 'react';
import type { CourseOption } from '../components/CourseSelector';
import { readPref, writePref } from './storage';

/** The course remembered for a screen, if any. */
export function readRememberedCourse(key: string): CourseOption | null {
  try {
    const raw = readPref(key);
    const parsed = raw ? (JSON.parse(raw) as CourseOption) : null;
    return parsed && typeof parsed.id === 'number' && parsed.category ? parsed : null;
  } catch {
    return null;
  }
}

/** The course chosen on a screen, remembered (per screen, in localStorage) across visits. */
export function useRememberedCourse(key: string): [CourseOption | null, (course: CourseOption | null) => void] {
  const [course, setCourse] = useState<CourseOption | null>(() => readRememberedCourse(key));
  const choose = (c: CourseOption | null) => {
    setCourse(c);
    writePref(key, c ? JSON.stringify(c) : '');
  };
  return [course, choose];
}
