import type { Collection } from '@sigaf/contract';
import { Alert, Link, MenuItem, Stack, TextField } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import type { CourseOption } from '../lib/rememberedCourse';
import { useSession } from '../lib/session';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData } from '../lib/api';

export type { CourseOption };

/** The shared category → course selector (docs/development/screens.md#course-selector): only active courses are offered. */
export function CourseSelector({
  value,
  onChange,
}: {
  value: CourseOption | null;
  onChange: (course: CourseOption | null) => void;
}) {
  const { t } = useTranslation();
  const [categoryId, setCategoryId] = useState<number | ''>(value?.category.id ?? '');
  // A course chosen from outside (a link such as /my/ticket?course=3, a remembered choice) shows its category too.
  const valueCategory = value?.category.id;
  useEffect(() => {
    if (valueCategory !== undefined) setCategoryId(valueCategory);
  }, [valueCategory]);
  const categories = useQuery({
    queryKey: ['options', 'categories'],
    queryFn: async () =>
      (
        await getData<Collection<{ id: number; description: string }>>('/api/v2/categories')
      ).collections.map((c) => c.properties),
    staleTime: 60_000,
  });
  const courses = useQuery({
    queryKey: ['category-courses', categoryId],
    enabled: categoryId !== '',
    queryFn: async () =>
      (
        await getData<Collection<CourseOption>>(`/api/v2/categories/${categoryId}/courses`)
      ).collections.map((c) => c.properties),
    staleTime: 60_000,
  });
  // With one category, it is chosen; with one course in the category, that course too.
  const onlyCategory = categories.data?.length === 1 ? categories.data[0]!.id : undefined;
  useEffect(() => {
    if (onlyCategory !== undefined && categoryId === '') setCategoryId(onlyCategory);
  }, [onlyCategory, categoryId]);
  const onlyCourse =
    courses.data?.length === 1 && courses.data[0]!.category.id === categoryId
      ? courses.data[0]!
      : undefined;
  useEffect(() => {
    if (onlyCourse && !value) onChange(onlyCourse);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- by id: a parent's new onChange is not a new course
  }, [onlyCourse?.id, value?.id]);
  const { role } = useSession();
  const admin = role === 'admin' || role === 'developer';
  // A new instance has no category yet: say what to do next, and where.
  if (categories.data && categories.data.length === 0) {
    return (
      <Alert severity="info" data-testid="no-categories" sx={{ width: '100%', maxWidth: 720 }}>
        {t('course.noCategories')}{' '}
        {admin ? (
          <>
            <Link component={RouterLink} to="/my/mantenedor/categoria">
              {t('course.createCategory')}
            </Link>
            {' · '}
            <Link component={RouterLink} to="/my/mantenedor/Curso">
              {t('course.createCourse')}
            </Link>
            {' · '}
            <Link component={RouterLink} to="/my/configuracion/actividad">
              {t('course.importFromMoodle')}
            </Link>
          </>
        ) : (
          t('course.askAdmin')
        )}
      </Alert>
    );
  }
  // Until the category's courses arrive, the chosen course is its own option, so it shows at once.
  const options = courses.data ?? (value ? [value] : []);
  const categoryOptions = categories.data ?? (value ? [value.category] : []);
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ width: '100%', maxWidth: 720 }}
    >
      <TextField
        select
        label={t('course.category')}
        value={categoryId}
        onChange={(e) => {
          setCategoryId(e.target.value === '' ? '' : Number(e.target.value));
          onChange(null);
        }}
      >
        {categoryOptions.map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {c.description}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={t('course.course')}
        value={value?.id ?? ''}
        disabled={categoryId === '' || (courses.isLoading && !value)}
        onChange={(e) =>
          onChange((courses.data ?? []).find((c) => c.id === Number(e.target.value)) ?? null)
        }
        helperText={
          categoryId !== '' && courses.data?.length === 0 ? t('course.noCourses') : undefined
        }
      >
        {options.map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {c.description}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
