defmodule Kitchen.Oven do
  @moduledoc "An oven that bakes trays."

  alias Kitchen.Tray
  import Enum, only: [sum: 1]
  require Logger

  @max_temperature 250

  @doc "Heats the oven to a temperature, capped at the maximum."
  def heat(oven, temperature) when temperature > @max_temperature do
    heat(oven, @max_temperature)
  end

  def heat(oven, temperature) do
    Logger.info("heating")
    %{oven | temperature: temperature}
  end

  @doc "Bakes every tray and answers the total weight."
  @spec bake([Tray.t()]) :: number()
  def bake(trays) do
    weights = Enum.map(trays, &Tray.weight/1)
    sum(weights)
  end

  defp cooled(0), do: :cold
  defp cooled(minutes), do: {:cooling, minutes}

  defmacro preheated(oven) do
    quote do: unquote(oven).temperature > 0
  end
end

defprotocol Kitchen.Bakeable do
  def bake_time(item)
end
