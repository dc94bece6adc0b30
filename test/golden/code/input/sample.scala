package org.sample.orchard

import scala.collection.mutable
import org.sample.weather.{Forecast, Season => Time}

/** A tree that bears fruit once a year. */
class FruitTree(val kind: String, ageYears: Int) extends Plant {
  private val harvests = mutable.ListBuffer[Int]()
  var pruned: Boolean = false

  /** Picks the ripe fruit and records the yield. */
  def harvest(forecast: Forecast): Int = {
    val ripe = forecast.sunnyDays * ageYears
    harvests += ripe
    ripe
  }

  type Yield = Int
}

trait Plant {
  def water(litres: Double): Unit
}

object Orchard {
  val defaultRows = 12

  def plant(kind: String): FruitTree = new FruitTree(kind, 0)
}

case class Basket(apples: Int, pears: Int)

enum Ripeness {
  case Green, Ripe, Rotten
}

def weigh(basket: Basket): Double = basket.apples * 0.2 + basket.pears * 0.25
