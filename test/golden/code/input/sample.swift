import Foundation
import CoreLocation.CLLocation

/// A weather station that records readings.
public final class Station: Sensor {
    private var readings: [Reading] = []
    let identifier: String

    init(identifier: String) {
        self.identifier = identifier
    }

    /// Records one reading and answers the running mean.
    func record(_ reading: Reading) -> Double {
        readings.append(reading)
        let total = readings.reduce(0) { $0 + $1.celsius }
        return total / Double(readings.count)
    }

    static func offline() -> Station {
        Station(identifier: "offline")
    }
}

protocol Sensor {
    func record(_ reading: Reading) -> Double
    var identifier: String { get }
}

struct Reading {
    var celsius: Double
}

enum Sky {
    case clear
    case cloudy
}

extension Station {
    func reset() {
        readings.removeAll()
    }
}

typealias Readings = [Reading]

func fahrenheit(_ celsius: Double) -> Double {
    celsius * 9 / 5 + 32
}
