import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

/** The signed-in application's server data cache (one per page load). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (n, err) => !(err instanceof ApiError && err.status < 500) && n < 2,
      refetchOnWindowFocus: false,
    },
  },
});
