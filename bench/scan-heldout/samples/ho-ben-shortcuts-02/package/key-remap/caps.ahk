; Caps Lock acts as Escape when tapped and Control when held
#Requires AutoHotkey v2.0
*CapsLock:: {
    Send "{Blind}{Ctrl Down}"
    KeyWait "CapsLock"
    Send "{Blind}{Ctrl Up}"
    if (A_PriorKey = "CapsLock")
        Send "{Esc}"
}
