import { DataGrid, type DataGridProps, type GridValidRowModel } from '@mui/x-data-grid';
import { useGridLocaleText } from './useGridLocaleText';

export const PAGE_SIZE_OPTIONS = [30, 50, 100];

/**
 * The admin and authoring tables: a DataGrid in the reader's language that grows with its rows. The
 * lists are paged by the server and come in the server's order, so the grid neither sorts nor filters
 * them itself (`ServerGrid` turns sorting back on and hands it to the server). Load it only from
 * lazily loaded pages: the grid is heavy.
 */
export function DataTable<R extends GridValidRowModel>({ sx, ...props }: DataGridProps<R>) {
  const localeText = useGridLocaleText();
  return (
    <DataGrid<R>
      autoHeight
      disableRowSelectionOnClick
      disableColumnFilter
      disableColumnSorting
      pageSizeOptions={PAGE_SIZE_OPTIONS}
      localeText={localeText}
      sx={[
        {
          bgcolor: 'background.paper',
          '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' },
          '& .MuiDataGrid-cell:focus, & .MuiDataGrid-cell:focus-within': { outlineOffset: -2 },
          // A long header (a translated "Name / Student number") wraps onto a second line instead of
          // being cut to an ellipsis; the header row has room for two.
          '& .MuiDataGrid-columnHeaderTitle': { whiteSpace: 'normal', lineHeight: 1.25 },
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
      {...props}
    />
  );
}
