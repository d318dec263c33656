import type { ReactElement, ReactNode } from 'react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { REFRESH_INTERVAL_MS } from '@/shared/api/baseApi';
import type { Page } from '@/shared/api/paging';
import { usePagedList, type PagedListState } from '@/shared/ui/paging/usePagedList';
import { FilterChips } from './FilterChips';
import { MonitorList } from './MonitorList';

/** What a filtered monitor list asks the server for: one page of the game's rows of one kind, searched. */
interface PageArg<Value> {
  id: number;
  type?: Value;
  search?: string;
  count: number;
  skip: number;
}

/** The part of an RTK Query hook (useGameEventsPageQuery…) a filtered monitor list reads. */
type PageQuery<Value, Row> = (
  arg: PageArg<Value>,
  options: { pollingInterval: number },
) => { data?: Page<Row>; currentData?: Page<Row>; error?: unknown; isFetching: boolean };

// One empty list for every render, so a page without rows does not look changed to memoised children.
const NO_ROWS: never[] = [];

export interface FilteredPage<Value extends string, Row> {
  /** The game, from the route. */
  id: number;
  /** The chosen filter value (null: all). */
  filter: Value | null;
  setFilter: (value: Value | null) => void;
  list: PagedListState;
  pageSize: number;
  /** The last answer: its total is kept while the next page loads. */
  data: Page<Row> | undefined;
  /** Rows only for the page, filter and search asked for. */
  rows: Row[];
  error: unknown;
  isFetching: boolean;
}

/**
 * The state of a game's paged monitor list narrowed to one value (an event type, an answer status)
 * and searched on the server, newest first, polled every 10 s; changing the filter or the search
 * returns to the first page.
 */
export function useFilteredPage<Value extends string, Row>(
  useQuery: PageQuery<Value, Row>,
  pageSize: number,
): FilteredPage<Value, Row> {
  const id = Number(useParams().id);
  const [filter, setFilter] = useState<Value | null>(null);
  const list = usePagedList([filter], pageSize);
  const settled = list.settledSearch.trim();
  const { data, currentData, error, isFetching } = useQuery(
    {
      id,
      type: filter ?? undefined,
      search: settled || undefined,
      count: list.count,
      skip: list.skip,
    },
    { pollingInterval: REFRESH_INTERVAL_MS },
  );
  // Rows only for the page and filters asked for; the count stays from the last answer meanwhile.
  const rows = currentData?.items ?? NO_ROWS;
  return { id, filter, setFilter, list, pageSize, data, rows, error, isFetching };
}

interface Props<Value extends string, Row> {
  page: FilteredPage<Value, Row>;
  labels: { search: string; filter: string; all: string };
  /** The filter's values, one chip each after "all". */
  values: readonly Value[];
  labelOf: (value: Value) => string;
  iconOf?: (value: Value) => ReactElement;
  /** Buttons right of the search (exports). */
  actions?: ReactNode;
  /** The rows. */
  children: ReactNode;
}

/** A monitor list with its one-choice filter chips left of the search (events, submissions). */
export function FilteredMonitorList<Value extends string, Row>({
  page,
  labels,
  values,
  labelOf,
  iconOf,
  actions,
  children,
}: Props<Value, Row>) {
  return (
    <MonitorList
      list={page.list}
      pageSize={page.pageSize}
      data={page.data}
      shown={page.rows.length}
      error={page.error}
      searchLabel={labels.search}
      filters={
        <FilterChips
          label={labels.filter}
          allLabel={labels.all}
          values={values}
          chosen={page.filter}
          onChoose={page.setFilter}
          labelOf={labelOf}
          iconOf={iconOf}
        />
      }
      actions={actions}
    >
      {children}
    </MonitorList>
  );
}
