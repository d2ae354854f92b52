import { PriceList } from '../components/price-list';
import { TvScreen } from '../components/tv-screen';

/** Simulator Pricing — spec customer §2 /splash: the price list at the counter. */
export default function SplashScreen() {
  return (
    <TvScreen>
      <PriceList />
    </TvScreen>
  );
}
