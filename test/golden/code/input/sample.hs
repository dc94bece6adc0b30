module Garden.Beds (Bed(..), water, harvest) where

import qualified Data.Map as Map
import Data.List (sortOn)

-- | A raised bed with its plants.
data Bed = Bed
  { bedName :: String
  , plants :: [Plant]
  }

-- | How much water a plant needs each day.
newtype Litres = Litres Double

type Plant = String

data Season = Spring | Summer | Autumn

-- | Things that can be tended.
class Tendable a where
  tend :: a -> a

instance Tendable Bed where
  tend bed = bed { plants = sortOn id (plants bed) }

-- | Waters every plant in a bed.
water :: Litres -> Bed -> Bed
water _ bed = bed

-- | What a bed yields in a season.
harvest :: Season -> Bed -> Int
harvest Spring _ = 0
harvest Summer bed = length (plants bed)
harvest Autumn bed = 2 * length (plants bed)

inventory :: [Bed] -> Map.Map String Int
inventory beds = Map.fromList [(bedName b, length (plants b)) | b <- beds]
