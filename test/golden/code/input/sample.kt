package org.sample.library

import kotlin.collections.ArrayDeque
import org.sample.clock.Clock as WallClock

/** How long a loan runs, in days. */
const val LOAN_DAYS = 21

/**
 * A library shelf that lends books.
 */
class Shelf(val name: String, private val clock: WallClock) : Catalog {
    private val waiting = ArrayDeque<Reader>()
    var lent: Int = 0

    /** Lends one book to a reader, or queues the reader. */
    override fun lend(book: Book, reader: Reader): Boolean {
        val available = book.copies - lent
        if (available <= 0) {
            waiting.addLast(reader)
            return false
        }
        lent += 1
        return true
    }

    constructor(name: String) : this(name, WallClock.system())

    companion object {
        fun empty(): Shelf = Shelf("empty")
    }
}

interface Catalog {
    fun lend(book: Book, reader: Reader): Boolean
}

enum class Genre {
    FICTION,
    HISTORY,
}

data class Book(val title: String, val copies: Int)

object Registry {
    fun find(title: String): Book? = null
}

typealias Readers = List<Reader>

fun overdue(days: Int): Boolean = days > LOAN_DAYS
