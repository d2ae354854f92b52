import { PriceList } from '../components/price-list';

/** Simulator Pricing — spec customer §2 /splash: the price list at the counter. */
export default function SplashScreen() {
  return <PriceList />;
}
