import type { Dispatch, UnknownAction } from '@reduxjs/toolkit';
// Features may not import values from src/app (where useAppSelector lives), so this feature types the
// same react-redux hooks against the part of the state it owns (allowed in a feature's hooks.ts).
import { useDispatch, useSelector } from 'react-redux';
import type { WsrxRootState } from './slice';

export const useWsrxSelector = useSelector.withTypes<WsrxRootState>();
export const useWsrxDispatch = useDispatch.withTypes<Dispatch<UnknownAction>>();
