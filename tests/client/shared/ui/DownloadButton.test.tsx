import { configure, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { initialPreferences } from '@/shared/preferences/slice';
import { DownloadButton } from '@/shared/ui/DownloadButton';
import { server } from '../../msw';
import { API, renderWithProviders } from '../../helpers/render';

configure({ asyncUtilTimeout: 8000 });

describe('a sheet download', () => {
  it("asks in the app's language, so a refusal comes back in it (spec §7)", async () => {
    // The server refuses the sheet (not started yet) and words it in the language asked for.
    server.use(
      http.get(`${API}/game/7/scoreboardsheet`, ({ request }) =>
        HttpResponse.json(
          { title: `refused in ${request.headers.get('accept-language') ?? 'nothing'}`, status: 400 },
          { status: 400 },
        ),
      ),
    );
    renderWithProviders(
      <DownloadButton url="/api/game/7/scoreboardsheet" fileName="scoreboard.xlsx">
        Scoreboard sheet
      </DownloadButton>,
      { language: 'de-DE', preloadedState: { preferences: { ...initialPreferences, language: 'de-DE' } } },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Scoreboard sheet' }));
    expect(await screen.findByText('refused in de-DE')).toBeInTheDocument();
  });
});
