import type { Collection, Envelope, ResourceDecl } from '@sigaf/contract';
import { useQuery } from '@tanstack/react-query';
import { getData, request, type QueryValue } from '../../lib/api';

export type Row = { id: number } & Record<string, unknown>;

export interface ListParams {
  page: number;
  perPage: number;
  search?: string;
  sort?: string;
  order?: 'asc' | 'desc';
}

/** One page of a declared resource, from the server (pagination, search and sort happen there). */
export function useResourceList(
  decl: ResourceDecl,
  params: ListParams,
  filters: Record<string, QueryValue> = {},
  enabled = true,
) {
  return useQuery({
    queryKey: ['resource', decl.path, params, filters],
    enabled,
    queryFn: async () => {
      const data = await getData<Collection<Row>>(`/api/v2/${decl.path}`, {
        query: {
          page: params.page,
          perPage: params.perPage,
          search: params.search,
          sort: params.sort,
          order: params.order,
          all: 1,
          ...filters,
        },
      });
      return {
        rows: data.collections.map((c) => c.properties),
        total: data.meta?.total ?? data.numberOfElements,
      };
    },
    placeholderData: (prev) => prev,
  });
}

/** Every row matching the search (for export). */
export async function fetchAll(
  decl: ResourceDecl,
  params: Omit<ListParams, 'page' | 'perPage'>,
): Promise<Row[]> {
  const data = await getData<Collection<Row>>(`/api/v2/${decl.path}`, {
    query: { ...params, all: 1 },
  });
  return data.collections.map((c) => c.properties);
}

/** Options of a select field: `{id, description}` items of another resource. */
export function useOptions(path: string | undefined) {
  return useQuery({
    queryKey: ['options', path],
    enabled: Boolean(path),
    queryFn: async () => {
      const data = await getData<
        Collection<{ id: number; description: string; key?: string | null }>
      >(`/api/v2/${path}`);
      // Rows only: the sections' list ends with an entry of id 0 for the original client's progress (legacy UNFILED_SECTION).
      return data.collections
        .filter((c) => c.properties.id > 0)
        .map((c) => ({
          id: c.properties.id,
          description: c.properties.description,
          key: c.properties.key ?? null,
        }));
    },
    staleTime: 60_000,
  });
}

export function saveResource(decl: ResourceDecl, id: number | null, body: Record<string, unknown>) {
  if (id === null) {
    return request<Envelope<{ properties: Row; temporaryPassword?: string }>>(
      `/api/v2/${decl.createPath ?? decl.path}`,
      { method: 'POST', body },
    );
  }
  const path = decl.updatePath ? decl.updatePath.replace(':id', String(id)) : `${decl.path}/${id}`;
  return request<Envelope<{ properties: Row; temporaryPassword?: string }>>(`/api/v2/${path}`, {
    method: 'PUT',
    body,
  });
}

export function deleteResource(decl: ResourceDecl, id: number) {
  return request<Envelope<null>>(`/api/v2/${decl.path}/${id}`, { method: 'DELETE', body: true });
}

export function resetPassword(id: number) {
  return request<Envelope<{ properties: Row; temporaryPassword: string }>>(
    `/api/v2/users/${id}/reset-password`,
    { method: 'POST', body: {} },
  );
}
