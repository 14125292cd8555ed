import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import KeyIcon from '@mui/icons-material/Key';
import TableChartIcon from '@mui/icons-material/TableChart';
import { resourceByKey, type ResourceDecl } from '@sigaf/contract';
import { Alert, Button, Chip, Stack, Tooltip, useTheme } from '@mui/material';
import { GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ExportMenu } from '../../components/ExportMenu';
import { PageCard } from '../../components/PageCard';
import { SearchBox } from '../../components/SearchBox';
import { ServerDataGrid, useServerPage } from '../../components/ServerDataGrid';
import { useFitColumns } from '../../components/useFitColumns';
import { useNotify } from '../../components/Snackbar';
import { NotFound } from '../../components/StatusPages';
import { ApiError } from '../../lib/api';
import { exportTable } from '../../lib/export';
import { roleLabel } from '../../lib/roles';
import { useSession } from '../../lib/session';
import {
  deleteResource,
  fetchAll,
  resetPassword,
  saveResource,
  useResourceList,
  type Row,
} from './api';
import { displayValue, neverSynced, statusLabels } from './fields';
import { ResourceForm } from './ResourceForm';
import { ROW_ACTIONS, type RowAction } from './rowActions';
import { TemporaryPasswordDialog, type TemporarySecret } from './TemporaryPassword';

/** The maintenance screen of any declared resource: table, search, sort, pages, create/edit, delete, export. */
export default function ResourcePage({ resourceKey }: { resourceKey: string }) {
  const decl = resourceByKey(resourceKey);
  return decl ? <ResourceScreen decl={decl} /> : <NotFound />;
}

function ResourceScreen({ decl }: { decl: ResourceDecl }) {
  const { t } = useTranslation();
  const theme = useTheme();
  // The grid's own translations come from the theme; only the empty text is ours.
  const gridLocale = (
    theme.components as { MuiDataGrid?: { defaultProps?: { localeText?: object } } } | undefined
  )?.MuiDataGrid?.defaultProps?.localeText;
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { role, user } = useSession();
  const canWrite = Boolean(role && decl.write.includes(role)) && !decl.listOnly;
  const { params: page, grid, firstPage } = useServerPage();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Row | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [resetting, setResetting] = useState<Row | null>(null);
  const [secret, setSecret] = useState<TemporarySecret | null>(null);
  // Row actions other features add to this resource (rowActions.tsx), for the roles they name.
  const extras = useMemo(
    () => (ROW_ACTIONS[decl.key] ?? []).filter((a) => role && a.roles.includes(role)),
    [decl.key, role],
  );
  const [extra, setExtra] = useState<{ action: RowAction; row: Row } | null>(null);
  const params = { ...page, search: search || undefined };
  const { data, isLoading, isError, isFetching } = useResourceList(decl, params);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['resource', decl.path] });
  const yesNo = statusLabels(t);
  const title = t(`resources.${decl.key}.title`);
  const onSearch = useCallback(
    (s: string) => {
      setSearch(s);
      firstPage();
    },
    [firstPage],
  );

  const columns = useMemo<GridColDef<Row>[]>(() => {
    const cols: GridColDef<Row>[] = [];
    if (decl.catalogue) cols.push({ field: 'id', headerName: t('fields.id'), width: 80 });
    for (const f of decl.fields.filter((x) => x.column !== false)) {
      cols.push({
        field: f.prop,
        headerName: t(`fields.${f.label}`),
        flex: 1,
        minWidth: 120,
        sortable: Boolean(f.sortable),
        valueGetter: (_v, row) =>
          decl.key === 'role' && f.name === 'description'
            ? roleLabel(t, row)
            : f.options === 'roles'
              ? roleLabel(t, row[f.prop] as object | null)
              : displayValue(f, row, yesNo),
        renderCell:
          f.kind === 'status'
            ? (p) => (
                <Chip
                  size="small"
                  color={
                    neverSynced(p.row)
                      ? 'warning'
                      : Number(p.row[f.prop]) === 1
                        ? 'success'
                        : 'default'
                  }
                  label={p.value as string}
                />
              )
            : undefined,
      });
    }
    if (decl.ticketColumn)
      cols.push({
        field: 'ticketsCount',
        headerName: t('fields.tickets'),
        width: 100,
        sortable: false,
      });
    if (canWrite || extras.length) {
      cols.push({
        field: 'actions',
        type: 'actions',
        headerName: t('common.actions'),
        width: (canWrite ? (decl.key === 'user' ? 140 : 110) : 30) + extras.length * 40,
        getActions: ({ row }) => {
          const locked = Boolean(row.protected) || (decl.key === 'user' && row.id === user?.id);
          const actions = !canWrite
            ? []
            : [
                <GridActionsCellItem
                  key="edit"
                  icon={<EditIcon />}
                  label={t('common.edit')}
                  onClick={() => setEditing(row)}
                />,
                <Tooltip key="delete" title={locked ? t('common.systemValue') : t('common.delete')}>
                  <span>
                    <GridActionsCellItem
                      icon={<DeleteIcon />}
                      label={t('common.delete')}
                      disabled={locked}
                      onClick={() => setDeleting(row)}
                    />
                  </span>
                </Tooltip>,
              ];
          if (canWrite && decl.key === 'user')
            actions.push(
              <GridActionsCellItem
                key="reset"
                icon={<KeyIcon />}
                label={t('users.resetPassword')}
                onClick={() => setResetting(row)}
              />,
            );
          for (const a of extras)
            actions.push(
              <GridActionsCellItem
                key={a.key}
                icon={a.icon}
                label={t(a.label)}
                onClick={() => setExtra({ action: a, row })}
              />,
            );
          return actions;
        },
      });
    }
    return cols;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the row actions read state when clicked
  }, [decl, canWrite, t, user?.id, extras]);
  // On a narrow screen the name (else the first field) and the actions stay; the others give way
  // from the last one.
  const fields = columns
    .map((c) => c.field)
    .filter((f) => f !== 'id' && f !== 'ticketsCount' && f !== 'actions');
  const kept = fields.includes('name') ? 'name' : fields[0];
  const fit = useFitColumns(columns, {
    remember: `resource-${decl.key}`,
    under: kept,
    hideFirst: ['id', 'ticketsCount', ...fields.filter((f) => f !== kept).reverse()],
  });

  const save = async (body: Record<string, unknown>) => {
    try {
      const res = await saveResource(decl, editing?.id ?? null, body);
      setEditing(undefined);
      notify(res.message || t('common.success'));
      if (res._data?.temporaryPassword)
        setSecret({
          name: String(res._data.properties.name),
          password: res._data.temporaryPassword,
        });
      await refresh();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
      throw err;
    }
  };

  const remove = async () => {
    if (!deleting) return;
    try {
      const res = await deleteResource(decl, deleting.id);
      notify(res.message || t('common.success'));
      await refresh();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error', 8000);
    } finally {
      setDeleting(null);
    }
  };

  const doReset = async () => {
    if (!resetting) return;
    try {
      const res = await resetPassword(resetting.id);
      setSecret({ name: String(resetting.name), password: res._data.temporaryPassword });
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    } finally {
      setResetting(null);
    }
  };

  const doExport = async (format: 'xlsx' | 'csv') => {
    try {
      const rows = await fetchAll(decl, {
        search: search || undefined,
        sort: page.sort,
        order: page.order,
      });
      const fields = decl.fields.filter((f) => f.column !== false);
      const header = [
        ...(decl.catalogue ? [t('fields.id')] : []),
        ...fields.map((f) => t(`fields.${f.label}`)),
      ];
      await exportTable(
        format,
        title,
        header,
        rows.map((r) => [
          ...(decl.catalogue ? [r.id] : []),
          ...fields.map((f) => displayValue(f, r, yesNo)),
        ]),
      );
    } catch {
      notify(t('common.error'), 'error');
    }
  };

  return (
    <PageCard
      title={title}
      icon={<TableChartIcon />}
      actions={
        <Stack
          direction="row"
          spacing={1}
          sx={{ flexWrap: 'wrap', alignItems: 'center', rowGap: 1 }}
        >
          <SearchBox onChange={onSearch} />
          <ExportMenu onExport={doExport} disabled={!data?.total} />
          {canWrite && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing(null)}>
              {t(`resources.${decl.key}.create`)}
            </Button>
          )}
        </Stack>
      }
    >
      {isError && <Alert severity="error">{t('common.loadError')}</Alert>}
      <ServerDataGrid
        label={title}
        rows={data?.rows ?? []}
        total={data?.total ?? 0}
        {...fit}
        loading={isLoading || isFetching}
        {...grid}
        pageSizeOptions={[5, 10, 25, 50, 100]}
        disableRowSelectionOnClick
        localeText={{ ...gridLocale, noRowsLabel: t('common.noRows') }}
        sx={{
          mt: 2,
          '& .MuiDataGrid-columnHeaderTitle': { fontWeight: 700, color: 'secondary.main' },
        }}
      />
      <ResourceForm
        decl={decl}
        row={editing ?? null}
        open={editing !== undefined}
        onClose={() => setEditing(undefined)}
        onSave={save}
      />
      {extra && (
        <Suspense fallback={null}>
          <extra.action.Dialog row={extra.row} onClose={() => setExtra(null)} />
        </Suspense>
      )}
      <ConfirmDialog
        open={Boolean(deleting)}
        message={t('common.deleteConfirm')}
        onCancel={() => setDeleting(null)}
        onConfirm={remove}
      />
      <ConfirmDialog
        open={Boolean(resetting)}
        message={t('users.resetConfirm', { name: resetting?.name ?? '' })}
        onCancel={() => setResetting(null)}
        onConfirm={doReset}
      />
      <TemporaryPasswordDialog secret={secret} onClose={() => setSecret(null)} />
    </PageCard>
  );
}
