// What a screen is configured by (its language, the panel's shape and viewing, the clock's
// format, a gauge, a task's progress) is Faces', a module below this one so that the
// configuration can declare it without the drawing; it is part of every screen's interface, so
// whoever imports the screens has it.
@_exported import Faces
