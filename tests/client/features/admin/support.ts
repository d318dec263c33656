import { http, HttpResponse } from 'msw';
import type { UserInfoModel } from '@/features/admin/api';
import { server } from '../../msw';
import { API, mockPlatform } from '../../helpers/render';

export const ADMIN = { userId: 'a0000000-0000-0000-0000-000000000001', userName: 'root', role: 'Admin' } as const;

/** The platform calls plus a signed-in admin. */
export function mockAdmin() {
  mockPlatform();
  server.use(http.get(`${API}/account/profile`, () => HttpResponse.json(ADMIN)));
}

export function user(index: number, overrides: Partial<UserInfoModel> = {}): UserInfoModel {
  return {
    id: `00000000-0000-0000-0000-${String(index).padStart(12, '0')}`,
    userName: `user${index}`,
    email: `user${index}@example.com`,
    realName: `Real ${index}`,
    stdNumber: `S${index}`,
    phone: null,
    bio: null,
    registerTimeUtc: 1_700_000_000_000,
    lastVisitedUtc: 1_700_000_500_000,
    ip: '10.0.0.1',
    avatar: null,
    role: 'User',
    emailConfirmed: true,
    ...overrides,
  };
}
