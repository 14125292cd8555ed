import type { Collection } from '@sigaf/contract';
import { MenuItem, Stack, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData } from '../lib/api';

export interface CourseOption {
  id: number;
  description: string;
  idCourseMoodle: number | null;
  lastSyncAt: string | null;
  category: { id: number; description: string; categoryCode: string };
}

/** The shared category → course selector (SCREENS.md §3): only active courses are offered. */
export function CourseSelector({ value, onChange }: { value: CourseOption | null; onChange: (course: CourseOption | null) => void }) {
  const { t } = useTranslation();
  const [categoryId, setCategoryId] = useState<number | ''>(value?.category.id ?? '');
  const categories = useQuery({
    queryKey: ['options', 'categories'],
    queryFn: async () => (await getData<Collection<{ id: number; description: string }>>('/api/v2/categories')).collections.map((c) => c.properties),
    staleTime: 60_000,
  });
  const courses = useQuery({
    queryKey: ['category-courses', categoryId],
    enabled: categoryId !== '',
    queryFn: async () => (await getData<Collection<CourseOption>>(`/api/v2/categories/${categoryId}/courses`)).collections.map((c) => c.properties),
    staleTime: 60_000,
  });
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ width: '100%', maxWidth: 720 }}>
      <TextField
        select
        label={t('course.category')}
        value={categoryId}
        onChange={(e) => {
          setCategoryId(e.target.value === '' ? '' : Number(e.target.value));
          onChange(null);
        }}
      >
        {(categories.data ?? []).map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {c.description}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={t('course.course')}
        value={value?.id ?? ''}
        disabled={categoryId === '' || courses.isLoading}
        onChange={(e) => onChange((courses.data ?? []).find((c) => c.id === Number(e.target.value)) ?? null)}
        helperText={categoryId !== '' && courses.data?.length === 0 ? t('course.noCourses') : undefined}
      >
        {(courses.data ?? []).map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {c.description}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
