import { GridActionsCellItem, type GridColDef, type GridValidRowModel } from '@mui/x-data-grid';
import type { ReactElement } from 'react';

/** One icon button of a row: its accessible name names the row ("Delete user2"). */
export interface RowAction<R> {
  key: string;
  icon: ReactElement;
  label: (row: R) => string;
  /** A tooltip, when the icon alone does not say what it does. */
  title?: string;
  onClick: (row: R) => void;
  disabled?: (row: R) => boolean;
}

/** Room for each 40 px icon button plus the cell's padding, so no action hides in an overflow. */
const widthFor = (count: number) => Math.max(110, count * 40 + 24);

/** The admin grids' last column: the row's actions as icon buttons, under the given header. */
export function actionsColumn<R extends GridValidRowModel>(
  headerName: string,
  actions: ReadonlyArray<RowAction<R>>,
): GridColDef<R> {
  return {
    field: 'actions',
    type: 'actions',
    headerName,
    width: widthFor(actions.length),
    getActions: ({ row }) =>
      actions.map((action) => (
        <GridActionsCellItem
          key={action.key}
          icon={action.icon}
          label={action.label(row)}
          title={action.title}
          disabled={action.disabled?.(row)}
          onClick={() => action.onClick(row)}
        />
      )),
  };
}
